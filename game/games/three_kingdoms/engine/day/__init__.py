"""What the days decide and what follows from damage (rulings 24, 31–40, 47–53): votes, wounds, 伤判,
deaths, successors, the end checks, and 在野 joining."""
