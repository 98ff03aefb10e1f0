# cmake -DCLI=<hwfit> -DOUT=<file> -DARGS=<args> -P hwfit_cli_output.cmake: run the built
# hwfit with ARGS and write what it prints to OUT (the man page, the bash completion).
execute_process(COMMAND "${CLI}" ${ARGS} OUTPUT_FILE "${OUT}.tmp" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CLI} ${ARGS} failed (${rc})")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
