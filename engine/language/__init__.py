"""Reading people's words in code: text cleaning, dates, vocabulary, strength notation."""
