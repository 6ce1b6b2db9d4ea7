/** The reference side of the framework floor: node:http writing the fixed answer. */
import { sendJson, serveCeiling } from '../ceiling-server.js';
import { FLOOR_ANSWER } from './answer.js';

serveCeiling((_req, res) => sendJson(res, 200, FLOOR_ANSWER));
