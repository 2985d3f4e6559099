"""Playing at the table: the terminal front end (screen, answers, the session loop) and
its commands."""
