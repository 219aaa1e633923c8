"""`python -m printgen`: command-line arguments in, the click CLI's exit code out."""

from printgen.cli import main

main()
