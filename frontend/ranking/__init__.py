"""The pages of ranked play: views, routes and the per-user websocket consumer."""
