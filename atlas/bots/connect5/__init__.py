"""The built-in connect5 bots: the seed's window minimax and a bitboard negamax."""
