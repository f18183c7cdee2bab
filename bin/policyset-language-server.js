#!/usr/bin/env node
'use strict';
// Usage: policyset-language-server --stdio
require('../server/out/server.js');
