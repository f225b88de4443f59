"""The pages of ranked play (issue 7): views, routes and the per-user websocket consumer."""
