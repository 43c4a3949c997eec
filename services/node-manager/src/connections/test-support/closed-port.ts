import { freePort } from '@triad/db/testing';

/** A loopback TCP port that was just free and is now closed (nothing listens on it). */
export const closedPort: () => Promise<number> = freePort;
