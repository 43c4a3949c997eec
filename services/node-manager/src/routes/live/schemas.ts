/** Route schema of `GET /api/core/ws` (also the OpenAPI description). */
export const liveSchema = {
  tags: ['live'],
  operationId: 'liveUpdates',
  summary: 'Live updates (WebSocket)',
  description:
    'Upgrade to a WebSocket; the first text frame is auth=<username>;websocket_pass=<pass> with a pass from ' +
    'GET /api/users/pass. A wrong first frame closes the socket with code 4401.',
  response: {
    101: { description: 'Switching to the WebSocket protocol', type: 'null' },
    404: { description: 'Not a WebSocket upgrade request (empty body)', type: 'null' },
  },
} as const;
