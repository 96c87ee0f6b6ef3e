# walk_warnings(target): our own code builds with warnings as errors; third-party and generated
# code does not, so the flags are set per target, never globally.
function(walk_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wno-unused-parameter)
endfunction()
