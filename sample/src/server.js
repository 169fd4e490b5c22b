'use strict';

const http = require('node:http');
const { createApp } = require('./app');
const { TodoStore } = require('./store');

const port = Number(process.env.PORT ?? 3000);
const server = http.createServer(createApp(new TodoStore()));
server.listen(port, () => {
  console.log(`todo-api listening on http://localhost:${server.address().port}`);
});
