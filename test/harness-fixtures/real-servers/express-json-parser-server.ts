/**
 * The conforming express 5 + express-rate-limit server with express's own JSON parser mounted
 * before the routes (`app.use(express.json())`, the express guide's way to read JSON bodies).
 * body-parser reads JSON with `JSON.parse` (body-parser 2.4.0 lib/types/json.js:93), so a categoryId past
 * 2^53 comes back rounded (an int64 the interface allows, stored changed), and a body that is
 * not JSON is refused by express's default error handler as an HTML page (finalhandler 2.1.1
 * index.js:271, `Content-Type: text/html`), not
 * a JSON Error.
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { expressAuth, expressPetRoutes, perKeyAndPlan } from './express-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressJsonParserServer(): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    rateLimit({
      ...perKeyAndPlan,
      standardHeaders: false,
      legacyHeaders: true,
      message: { code: 'rate_limited', message: 'Too many requests', status: 429 },
    }),
    expressAuth,
    express.json(),
    expressPetRoutes(createPetStore()),
  );
  return listenOnLoopback(createServer(app));
}
