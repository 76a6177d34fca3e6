# The layering of ferry's headers (the rule is stated below), checked on the source tree:
#   * no header under ferry/backend/ includes one from ferry/data/ (backends sit below the data
#     layer: the data environment calls a backend, never the reverse);
#   * every device backend folder (a folder of ferry/backend/ with a backend.hpp) holds the same
#     file list, so that adding a backend means copying a folder's files, not learning a new shape.
#   cmake -DINCLUDE_DIR=<repo>/include -P layering.cmake
# Fails (FATAL_ERROR) naming each offending file or folder.
file(GLOB_RECURSE backend_headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/ferry/backend/*)
set(problems "")
foreach(h IN LISTS backend_headers)
  file(STRINGS ${INCLUDE_DIR}/${h} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]ferry/data/")
  foreach(l IN LISTS lines)
    string(APPEND problems "\n  ${h} includes a data/ header: ${l}")
  endforeach()
endforeach()

file(GLOB backend_ids ${INCLUDE_DIR}/ferry/backend/*/backend.hpp)
set(reference "")
set(reference_dir "")
set(count 0)
foreach(id IN LISTS backend_ids)
  get_filename_component(dir ${id} DIRECTORY)
  file(GLOB_RECURSE files RELATIVE ${dir} ${dir}/*)
  file(RELATIVE_PATH dir ${INCLUDE_DIR} ${dir})
  list(SORT files)
  math(EXPR count "${count} + 1")
  if(reference_dir STREQUAL "")
    set(reference "${files}")
    set(reference_dir ${dir})
  elseif(NOT files STREQUAL reference)
    string(APPEND problems "\n  ${dir} holds [${files}], ${reference_dir} holds [${reference}]")
  endif()
endforeach()
if(count LESS 2)
  string(APPEND problems "\n  found ${count} device backend folder(s) under ferry/backend/, "
                         "expected cuda and hip at least (is INCLUDE_DIR right?)")
endif()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "ferry's header layering is broken:${problems}")
endif()
message(STATUS "ferry/backend/: no data/ includes; ${count} device backend folders, same files: "
               "${reference}")
