"""Night actions and their resolution (rulings 19–30, 50, 57, 58): submissions and their checks, the
resolution steps in ruling 28's order, identifications, and the server's rolls under 优判/劣判."""
