# routetune_target_flags(TARGET LOCK [FALLBACK])
#
# Gives TARGET the flags a routetune lock applies (`routetune flags LOCK`, one line of shell
# words), as compile and link options. It runs at configure time, and a change of LOCK re-runs
# the configure. A stale lock (the compiler, machine, spec or inputs differ from the lock's)
# fails the configure, naming the differences; with FALLBACK the default route's flags are
# used instead, routetune warns, and the fallback is logged in the lock's audit log.
function(routetune_target_flags target lock)
  cmake_parse_arguments(PARSE_ARGV 2 ROUTETUNE_ARG "FALLBACK" "" "")
  if(NOT ROUTETUNE_EXECUTABLE)
    find_program(ROUTETUNE_EXECUTABLE routetune REQUIRED)
  endif()
  set(fallback)
  if(ROUTETUNE_ARG_FALLBACK)
    set(fallback --fallback)
  endif()
  execute_process(COMMAND "${ROUTETUNE_EXECUTABLE}" flags "${lock}" ${fallback}
                  OUTPUT_VARIABLE flags ERROR_VARIABLE messages RESULT_VARIABLE status
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "routetune flags ${lock} exited with ${status}:\n${messages}")
  endif()
  if(messages)
    message(WARNING "${messages}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  target_compile_options(${target} PRIVATE ${flags})
  target_link_options(${target} PRIVATE ${flags})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${lock}")
endfunction()
