# Embeds GLSL files into a generated C++ source so the binary runs from any folder
# (ioquake3's stringify_shader.cmake does the same for its renderer).
#
# bspv_embed_shaders(OUTPUT out.cpp FILES a.glsl b.glsl ...) adds a build step that
# regenerates out.cpp whenever a shader changes. The generated file defines
# render::kEmbeddedShaders (see src/render/glsl_library.h).
function(bspv_embed_shaders)
    cmake_parse_arguments(ARG "" "OUTPUT" "FILES" ${ARGN})
    add_custom_command(
        OUTPUT ${ARG_OUTPUT}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${ARG_OUTPUT} "-DFILES=${ARG_FILES}"
                -P ${PROJECT_SOURCE_DIR}/cmake/embed_shaders_run.cmake
        DEPENDS ${ARG_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_shaders_run.cmake
        COMMENT "Embedding shaders"
        VERBATIM)
endfunction()
