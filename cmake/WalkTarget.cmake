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
# files include (gRPC and the API), parsed once a target instead of once a batch of the unity
# build (WALKD_UNITY_BUILD): only for targets of several batches (walk_server). A target of one
# batch parses them once anyway, and building the header costs about as much as parsing it.
function(walk_precompile_headers target)
  target_precompile_headers(${target} PRIVATE ${ARGN})
endfunction()
