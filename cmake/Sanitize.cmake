# Sanitizer and fuzzing builds (docs/fuzzing.md). Both change how every file is compiled, so
# unlike the warnings (per target, cmake/WalkTarget.cmake) their flags are set for the whole
# build directory: each lives in its own (scripts/build keeps build-asan and build-fuzz apart
# from build/), never in the ordinary one.
#
#   WALKD_SANITIZE  sanitizers for every target, comma-separated: "address", "undefined" or
#                   "address,undefined" (gcc or clang). Empty: none.
#   WALKD_FUZZ      ON: also build the libFuzzer targets of tests/fuzz (clang only), with
#                   address and undefined on and libFuzzer's coverage in every file.
set(WALKD_SANITIZE "" CACHE STRING "Sanitizers for the whole build: address, undefined, or both")
option(WALKD_FUZZ "Build the libFuzzer targets of tests/fuzz (clang)" OFF)

if(WALKD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "WALKD_FUZZ needs clang (libFuzzer): configure with "
                        "-DCMAKE_CXX_COMPILER=clang++, as scripts/fuzz does")
  endif()
  if(NOT WALKD_SANITIZE)
    set(WALKD_SANITIZE "address,undefined" CACHE STRING "" FORCE)
  endif()
endif()

if(WALKD_SANITIZE)
  string(REPLACE "," ";" walk_sanitizers "${WALKD_SANITIZE}")
  foreach(sanitizer IN LISTS walk_sanitizers)
    if(NOT sanitizer MATCHES "^(address|undefined)$")
      message(FATAL_ERROR "WALKD_SANITIZE: unknown sanitizer '${sanitizer}' "
                          "(address, undefined, or both comma-separated)")
    endif()
  endforeach()
  set(walk_sanitize_flags -fsanitize=${WALKD_SANITIZE} -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  if("undefined" IN_LIST walk_sanitizers)
    # Undefined behaviour gcc's "undefined" leaves out: a float cast to an integer it cannot hold.
    list(APPEND walk_sanitize_flags -fsanitize=float-cast-overflow)
  endif()
  add_compile_options(${walk_sanitize_flags})
  add_link_options(${walk_sanitize_flags})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # gcc's sanitizer instrumentation makes this warning misfire (in libstdc++'s <regex>, for
    # one); the ordinary build keeps it as an error.
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  message(STATUS "walkd: sanitizers ${WALKD_SANITIZE}")
endif()

if(WALKD_FUZZ)
  # libFuzzer's coverage counters in every file; only the fuzz targets link its main.
  add_compile_options(-fsanitize=fuzzer-no-link)
  message(STATUS "walkd: fuzz targets on (tests/fuzz)")
endif()
