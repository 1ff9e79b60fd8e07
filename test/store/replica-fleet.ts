// `wasmhooks serve` replicas on one real redis-server, for one describe block (replicas, seq-replicas,
// fence-replicas tests): Redis starts before the block and stops after it; the replicas and SSE clients a
// test starts are closed and SIGKILLed after it (continued first, in case the test stopped one).
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedis, type RedisServer } from './redis-server.js';
import { scriptDir, sse, startReplica, type Replica, type SseClient } from './processes.js';

export interface ReplicaFleet {
  /** The block's redis-server (a test may stop and start it). */
  readonly redis: RedisServer;
  /** The scripts' directory every replica runs in. */
  readonly dir: string;
  /** The replicas killed after the test: `replica` adds to it; a test that starts one itself pushes it. */
  readonly replicas: Replica[];
  /** A replica on the block's Redis, named `name`, with this fleet's lease. */
  replica(name: string): Promise<Replica>;
  /** An SSE client closed after the test. */
  watch(url: string, lastEventId?: string): Promise<SseClient>;
}

export function replicaFleet(leaseMs = 600): ReplicaFleet {
  let redis: RedisServer | undefined;
  let dir = '';
  const replicas: Replica[] = [];
  const clients: SseClient[] = [];
  beforeAll(async () => {
    dir = scriptDir();
    redis = await startRedis();
  }, 30_000);
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const r of replicas) r.child.kill('SIGCONT');
    await Promise.all(replicas.splice(0).map((r) => r.kill('SIGKILL')));
  });
  afterAll(async () => redis?.dispose());
  const fleet: ReplicaFleet = {
    get redis() {
      if (!redis) throw new Error('the fleet\'s redis-server starts in beforeAll');
      return redis;
    },
    get dir() {
      return dir;
    },
    replicas,
    async replica(name) {
      const r = await startReplica(dir, ['--store', fleet.redis.url, '--replica', name, '--lease-ms', String(leaseMs)]);
      replicas.push(r);
      return r;
    },
    async watch(url, lastEventId) {
      const c = await sse(url, lastEventId);
      clients.push(c);
      return c;
    },
  };
  return fleet;
}
