from rulesref.cli import main

main()
