"""What each audience knows and sees (rulings 6, 8–11, 33, 61): recognition and channels, and views."""
