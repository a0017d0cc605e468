// Config: the one place that says where the server is.

/**
 * socketURLs lists the WebSocket addresses to try, in order; after a drop the
 * client moves on to the next one. Today it is the page's own host; a list of
 * nodes for failover goes here.
 * @param {{protocol: string, host: string}} [loc] the page location
 * @returns {string[]}
 */
export function socketURLs(loc = globalThis.location) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return [`${scheme}//${loc.host}/ws`];
}

/** API is the path prefix of the HTTP API on the page's own host. */
export const API = '/api';
