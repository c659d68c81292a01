"""Playing in the terminal: the screen a player sees (board.py, screen.py), the prompt and
its commands (prompt.py), and the game loop with its agents and records (session.py).

Output goes through Rich (colours, styles and a plain fallback when stdout is not a
terminal); input through prompt_toolkit when it is installed and stdin is a terminal (Tab
completion of moves and commands), else input()."""
