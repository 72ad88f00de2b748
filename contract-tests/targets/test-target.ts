/** A target that sends nothing, for the unit tests of the planner and the budget. */
import { fullCapabilities, type Target } from '../http/target.ts';

/** A remote server with every capability; its route and close do nothing. */
export const testTarget: Target = {
  name: 'test',
  baseUrl: 'http://h/v1',
  apiKey: 'key-for-tests',
  loopback: false,
  capabilities: fullCapabilities,
  viaPrism: false,
  route: () => ({ sendUrl: 'http://h/v1/pets', reproUrl: 'http://h/v1/pets' }),
  close: async () => {},
};
