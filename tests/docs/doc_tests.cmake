# Every page of docs/ with a ```sh block, its blocks run as written and their
# ```output blocks checked (tests/docs/run_doc_commands.py says the convention):
# one test per page, doc_commands.PAGE, as readme_commands runs the README.
# docs/experiments.md is left out: its commands are the benchmarks of `make bench`.
# A page that gains or loses its first ```sh block reconfigures the build.
file(GLOB doc_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
foreach(doc_page IN LISTS doc_pages)
  get_filename_component(doc_name ${doc_page} NAME_WE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${doc_page})
  file(STRINGS ${doc_page} doc_runnable REGEX "^[ \t]*```sh[ \t]*$")
  if(doc_runnable AND NOT doc_name STREQUAL "experiments")
    add_test(NAME doc_commands.${doc_name}
      COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/run_doc_commands.py ${PROJECT_SOURCE_DIR}
              $<TARGET_FILE:hetscale_cli> ${doc_page})
    set_tests_properties(doc_commands.${doc_name} PROPERTIES TIMEOUT 900 RUN_SERIAL TRUE)
  endif()
endforeach()
