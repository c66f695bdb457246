# packaging.revision_fallbacks: cmake/git_revision_run.cmake outside a git checkout, as in a
# source tarball: the git-archive substituted cmake/git_revision.txt, the unsubstituted
# placeholder ("unknown"), and the BSPV_GIT_REVISION override.
#   cmake -DSCRIPT=.../git_revision_run.cmake -DSCRATCH=... -DGIT_EXECUTABLE=... -P this
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/src/cmake)

function(expect_revision label override expected)
    set(out ${SCRATCH}/git_revision_${label}.cpp)
    execute_process(COMMAND ${CMAKE_COMMAND} -DOUTPUT=${out} -DSOURCE_DIR=${SCRATCH}/src
                            -DGIT_EXECUTABLE=${GIT_EXECUTABLE} -DOVERRIDE=${override}
                            -P ${SCRIPT}
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${label}: script failed (${rc})")
    endif()
    file(READ ${out} text)
    if(NOT text MATCHES "kGitRevision\\[\\] = \"${expected}\";")
        message(FATAL_ERROR "${label}: expected revision '${expected}', got:\n${text}")
    endif()
    message(STATUS "${label}: ${expected}")
endfunction()

# Copied from the real file, so the placeholder tested is the one committed.
configure_file(${SOURCE_DIR}/cmake/git_revision.txt ${SCRATCH}/src/cmake/git_revision.txt COPYONLY)
expect_revision(placeholder "" "unknown")
file(WRITE ${SCRATCH}/src/cmake/git_revision.txt "0123abcd4567890fedcba0123abcd4567890fedc\n")
expect_revision(archived "" "0123abcd4567")
expect_revision(override "debian-1.2" "debian-1.2")
file(REMOVE ${SCRATCH}/src/cmake/git_revision.txt)
expect_revision(nothing "" "unknown")
