"""The shared HTTP layer: rate limits and circuit breakers, one defensive GET, and the response
cache and request log kept in the library."""
