#!/usr/bin/env node
// The container's health check: the host answers /healthz on its own port, over TLS when it
// serves TLS. It runs inside the container, so it asks 127.0.0.1 (the certificate names the
// public host; there is nothing to verify on loopback).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const listen = process.env.TOOLWRIGHT_LISTEN || '127.0.0.1:7420';
const port = Number(/:(\d+)$/.exec(listen)?.[1] ?? 7420);
const tls = Boolean(process.env.TOOLWRIGHT_TLS_CERT);
const request = tls ? httpsRequest : httpRequest;
const req = request({ host: '127.0.0.1', port, path: '/healthz', timeout: 4000, rejectUnauthorized: false }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', () => process.exit(1));
req.end();
