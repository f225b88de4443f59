"""The match service: event store, match aggregate, services, selectors and the REST API."""
