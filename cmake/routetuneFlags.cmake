# routetune_target_flags(TARGET LOCK [FALLBACK] [SPEC SPEC])
#
# Gives TARGET the route a routetune lock applies (`routetune flags LOCK --format cmake`): its
# flags as compile and link options and its environment around every compile. The lock is
# checked at configure time AND before every build of TARGET (a custom target TARGET_routetune
# that TARGET depends on), so a compiler, input or artifact that changes after the configure is
# caught by the next build, not only by the next configure. The flags reach the compiler through
# a response file (@FILE, read by GCC and Clang) that the check rewrites only when the route
# changes, so the objects rebuild exactly when the route does.
#
# Anything that keeps the lock's route from being used stops the configure or the build with
# routetune's message: routetune not installed, the lock missing, unreadable or stale. Nothing
# is ever built without the route by accident. With FALLBACK a lock that cannot be used gives
# the spec's default route on purpose (routetune warns and logs it in the lock's audit log);
# SPEC names that spec, which a missing lock (deleted, or `git rm`'d to retire it) cannot. Without
# SPEC the spec the lock named when the tree was first configured is used (kept in the cache).
#
# This file is also the build-time check itself: `cmake -P routetuneFlags.cmake` with
# ROUTETUNE_OUT set runs it.

set(_routetune_flags_module "${CMAKE_CURRENT_LIST_FILE}")

# Runs routetune flags as the -D arguments say and writes OUT/flags.rsp (the flags, quoted for a
# GCC response file) and OUT/environment.sh (sourced around each compile), each only when it
# changed. Fails (FATAL_ERROR) with routetune's message when no route can be given.
function(_routetune_flags_check)
  set(command "${ROUTETUNE_EXECUTABLE}" flags "${ROUTETUNE_LOCK}" --format cmake)
  if(ROUTETUNE_FALLBACK)
    list(APPEND command --fallback)
    if(ROUTETUNE_SPEC)
      list(APPEND command --spec "${ROUTETUNE_SPEC}")
    endif()
  endif()
  if(NOT EXISTS "${ROUTETUNE_EXECUTABLE}")
    message(FATAL_ERROR "routetune: ${ROUTETUNE_EXECUTABLE} is gone; the build stops rather than build "
                        "without the route of ${ROUTETUNE_LOCK} (install routetune, or set ROUTETUNE_EXECUTABLE "
                        "and re-run cmake)")
  endif()
  execute_process(COMMAND ${command} OUTPUT_VARIABLE script ERROR_VARIABLE messages RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    set(hint "routetune_target_flags(... FALLBACK SPEC <spec>) builds the spec's default route on purpose")
    if(ROUTETUNE_FALLBACK)
      set(hint "even the fallback could not give a route")
    endif()
    message(FATAL_ERROR "routetune flags ${ROUTETUNE_LOCK} exited with ${status}:\n${messages}"
                        "The build stops rather than build without the lock's route; ${hint}.")
  endif()
  if(messages)
    message(WARNING "${messages}")
  endif()
  file(MAKE_DIRECTORY "${ROUTETUNE_OUT}")
  file(WRITE "${ROUTETUNE_OUT}/route.cmake.new" "${script}")
  # Rewritten only when the route changes: the configure reads it, so a new one re-configures.
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${ROUTETUNE_OUT}/route.cmake.new"
                          "${ROUTETUNE_OUT}/route.cmake")
  file(REMOVE "${ROUTETUNE_OUT}/route.cmake.new")
  include("${ROUTETUNE_OUT}/route.cmake")
  set(rsp "")
  foreach(flag IN LISTS ROUTETUNE_FLAGS)
    string(REPLACE "\\" "\\\\" flag "${flag}")
    string(REPLACE "'" "\\'" flag "${flag}")
    string(APPEND rsp "'${flag}'\n")
  endforeach()
  set(environment "")
  foreach(assignment IN LISTS ROUTETUNE_ENVIRONMENT)
    string(FIND "${assignment}" "=" equals)
    string(SUBSTRING "${assignment}" 0 ${equals} name)
    math(EXPR start "${equals} + 1")
    string(SUBSTRING "${assignment}" ${start} -1 value)
    string(REPLACE "'" "'\\''" value "${value}")
    string(APPEND environment "export ${name}='${value}'\n")
  endforeach()
  foreach(pair "flags.rsp;rsp" "environment.sh;environment")
    list(GET pair 0 name)
    list(GET pair 1 variable)
    file(WRITE "${ROUTETUNE_OUT}/${name}.new" "${${variable}}")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${ROUTETUNE_OUT}/${name}.new"
                            "${ROUTETUNE_OUT}/${name}")
    file(REMOVE "${ROUTETUNE_OUT}/${name}.new")
  endforeach()
  set(ROUTETUNE_ROUTE "${ROUTETUNE_ROUTE}" PARENT_SCOPE)
  set(ROUTETUNE_SOURCE "${ROUTETUNE_SOURCE}" PARENT_SCOPE)
  set(ROUTETUNE_SPEC "${ROUTETUNE_SPEC}" PARENT_SCOPE)
  set(ROUTETUNE_FLAGS "${ROUTETUNE_FLAGS}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND ROUTETUNE_OUT)
  _routetune_flags_check()
  return()
endif()

function(routetune_target_flags target lock)
  cmake_parse_arguments(PARSE_ARGV 2 ROUTETUNE_ARG "FALLBACK" "SPEC" "")
  if(NOT ROUTETUNE_EXECUTABLE)
    find_program(ROUTETUNE_EXECUTABLE routetune)
  endif()
  if(NOT ROUTETUNE_EXECUTABLE)
    message(FATAL_ERROR "routetune_target_flags(${target}): routetune is not on PATH; install it or set "
                        "ROUTETUNE_EXECUTABLE. ${target} is not built without the route of ${lock}.")
  endif()
  get_filename_component(lock "${lock}" ABSOLUTE)
  set(spec "${_ROUTETUNE_SPEC_OF_${target}}")  # the spec an earlier configure learned from the lock
  if(ROUTETUNE_ARG_SPEC)
    get_filename_component(spec "${ROUTETUNE_ARG_SPEC}" ABSOLUTE)
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/routetune/${target}")
  set(ROUTETUNE_LOCK "${lock}")
  set(ROUTETUNE_SPEC "${spec}")
  set(ROUTETUNE_FALLBACK "${ROUTETUNE_ARG_FALLBACK}")
  set(ROUTETUNE_OUT "${out}")
  _routetune_flags_check()
  if(NOT spec)
    set(spec "${ROUTETUNE_SPEC}")
  endif()
  set(_ROUTETUNE_SPEC_OF_${target} "${spec}" CACHE INTERNAL "the spec of ${target}'s lock, for a fallback once it is gone")
  message(STATUS "routetune: ${target} uses route '${ROUTETUNE_ROUTE}' (${ROUTETUNE_SOURCE}): ${ROUTETUNE_FLAGS}")
  add_custom_target(${target}_routetune
    COMMAND "${CMAKE_COMMAND}" "-DROUTETUNE_EXECUTABLE=${ROUTETUNE_EXECUTABLE}" "-DROUTETUNE_LOCK=${lock}"
            "-DROUTETUNE_SPEC=${spec}" "-DROUTETUNE_FALLBACK=${ROUTETUNE_ARG_FALLBACK}" "-DROUTETUNE_OUT=${out}"
            -P "${_routetune_flags_module}"
    BYPRODUCTS "${out}/flags.rsp" "${out}/environment.sh"
    COMMENT "routetune: checking ${lock}"
    VERBATIM)
  add_dependencies(${target} ${target}_routetune)
  target_compile_options(${target} PRIVATE "@${out}/flags.rsp")
  target_link_options(${target} PRIVATE "@${out}/flags.rsp")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${out}/flags.rsp")
  get_target_property(sources ${target} SOURCES)
  set_property(SOURCE ${sources} APPEND PROPERTY OBJECT_DEPENDS "${out}/flags.rsp" "${out}/environment.sh")
  foreach(language C CXX)
    get_target_property(launcher ${target} ${language}_COMPILER_LAUNCHER)
    if(NOT launcher)
      set(launcher "")
    endif()
    set_property(TARGET ${target} PROPERTY ${language}_COMPILER_LAUNCHER
                 sh -c ". \"$0\" && exec \"$@\"" "${out}/environment.sh" ${launcher})
  endforeach()
endfunction()
