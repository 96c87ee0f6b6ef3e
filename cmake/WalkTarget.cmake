# walk_warnings(target): our own code builds with warnings as errors; third-party and generated
# code does not, so the flags are set per target, never globally. The promise is gcc's: in the
# clang fuzzing build (WALKD_FUZZ, cmake/Sanitize.cmake) clang's own warnings stay warnings, so a
# warning gcc does not give never stops a fuzz run.
# In a unity build (WALKD_UNITY_BUILD) a class a file defines is in an included file, so gcc
# would warn of its members whose types are in the file's anonymous namespace
# (-Wsubobject-linkage): a warning about headers, which these files are not.
function(walk_warnings target)
  if(WALKD_FUZZ)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wno-unused-parameter)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# walk_precompile_headers(target HEADER...): the heavy third-party headers most of a target's
# files include (gRPC and the API, CLI11, JSON), parsed once a target instead of once a file: a
# server file spends over half its compile parsing gRPC's headers. Only for targets of several
# files; a test of one file gains nothing.
function(walk_precompile_headers target)
  target_precompile_headers(${target} PRIVATE ${ARGN})
endfunction()
