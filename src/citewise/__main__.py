from citewise.launch import main

main()
