"""The REST API (DRF): thin views over games.services and games.selectors."""
