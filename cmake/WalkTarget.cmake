# walk_warnings(target): our own code builds with warnings as errors; third-party and generated
# code does not, so the flags are set per target, never globally. The promise is gcc's: in the
# clang fuzzing build (WALKD_FUZZ, cmake/Sanitize.cmake) clang's own warnings stay warnings, so a
# warning gcc does not give never stops a fuzz run.
function(walk_warnings target)
  if(WALKD_FUZZ)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wno-unused-parameter)
  endif()
endfunction()
