"""`python -m printgen`: command-line arguments in, the click CLI's exit code out (printgen.launch answers Ctrl-C
and SIGTERM from the start)."""

from printgen.launch import main

main()
