// How `npm start` (and the webhook benchmark, for both servers it compares) runs the web server's Node.js.

/**
 * A young generation of up to 32 MB instead of V8's 16: deliveries stored in groups live across
 * a scavenge or two, and with the default they were copied and promoted (`npm run bench:webhooks`
 * with the flag on both servers: 0.77× → 0.83× of the minimal route handler).
 */
export const WEB_SERVER_NODE_FLAGS = ["--max-semi-space-size=32"];
