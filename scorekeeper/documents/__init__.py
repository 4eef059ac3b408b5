"""What goes out and comes back in files: the game document and the backup."""
