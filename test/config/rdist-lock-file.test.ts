import { it } from 'vitest';
import { loadConfig } from '../../host/config/load.js';
import { materializeConfig } from '../../host/config/materialize.js';
import { lockFileNotRegular } from './rdist-lock-file.js';

it('a wasmhooks.lock that is a FIFO, a link to /dev/zero or past 4 MiB is refused unread (INVALID_CONFIG), at once', () =>
  lockFileNotRegular({ loadConfig, materializeConfig: materializeConfig as never }), 30_000);
