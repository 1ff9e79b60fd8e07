// The version read from INFO server (host/store/redis-client.ts), which openStore refuses below 7
// (test/xrt/redis-version.xrt.ts shows the refusal on Node, Deno and Bun).
import { describe, expect, it } from 'vitest';
import { redisVersion } from '../../host/store/redis-client.js';

describe('redisVersion', () => {
  it('reads the major version and the text of redis_version', () => {
    expect(redisVersion('# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n')).toEqual({ major: 7, text: '7.0.15' });
    expect(redisVersion('# Server\r\nredis_version:6.2.14\r\n')).toEqual({ major: 6, text: '6.2.14' });
    expect(redisVersion('redis_version:10.1.0\r\n')?.major).toBe(10);
  });

  it('is undefined when INFO names no version (nothing is refused for it)', () => {
    expect(redisVersion('')).toBeUndefined();
    expect(redisVersion('# Server\r\nvalkey_version:8.0.1\r\n')).toBeUndefined();
    expect(redisVersion('x_redis_version:5.0.0\r\n')).toBeUndefined();
  });
});
