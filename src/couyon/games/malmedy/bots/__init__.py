"""The Malmedy bots: baseline, expert and the omniscient yardstick."""
