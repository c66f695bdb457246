# packaging.man_flags_documented: every flag that `bspview --help` prints appears in the
# hand-written manual page, its title names the project's version, and groff formats it without
# warnings.
#   cmake -DBSPVIEW=... -DMAN_PAGE=... -DGROFF=... -DVERSION=... -P check_man_flags.cmake
execute_process(COMMAND ${BSPVIEW} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "bspview --help failed (${rc})")
endif()
string(REGEX MATCHALL "(^|[ \t\n])--?[a-z][a-z0-9-]*" flags "${help}")
list(TRANSFORM flags STRIP)
list(REMOVE_DUPLICATES flags)
list(LENGTH flags count)
if(count LESS 10)
    message(FATAL_ERROR "found only ${count} flags in --help: ${flags}")
endif()
file(READ ${MAN_PAGE} man)
# roff writes a literal hyphen as \-.
string(REPLACE "\\-" "-" man "${man}")
set(missing "")
foreach(flag IN LISTS flags)
    string(REGEX REPLACE "([.+*?^$()\\[\\]|])" "\\\\\\1" escaped "${flag}")
    if(NOT man MATCHES "(^|[^a-z0-9-])${escaped}([^a-z0-9-]|$)")
        list(APPEND missing ${flag})
    endif()
endforeach()
if(missing)
    message(FATAL_ERROR "flags in --help but not in ${MAN_PAGE}: ${missing}")
endif()
message(STATUS "all ${count} flags documented: ${flags}")

string(REGEX MATCH "\n\\.TH BSPVIEW 1 [0-9-]+ \"bspview ([^\"]*)\"" title "${man}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
    message(FATAL_ERROR "${MAN_PAGE}: .TH names version '${CMAKE_MATCH_1}', the project is ${VERSION}")
endif()

execute_process(COMMAND ${GROFF} -man -Tutf8 -ww -z ${MAN_PAGE}
                RESULT_VARIABLE rc ERROR_VARIABLE warnings)
if(NOT rc EQUAL 0 OR NOT warnings STREQUAL "")
    message(FATAL_ERROR "groff: ${warnings}")
endif()
