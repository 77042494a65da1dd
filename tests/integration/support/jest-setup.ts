// Integration tests start real servers and wait on real queues; 5 s (jest's default) is too tight.
jest.setTimeout(90_000);
