"""What every game of the registry shares: plain helpers with no rules of any one game."""
