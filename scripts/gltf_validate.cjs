#!/usr/bin/env node
// Runs the Khronos glTF validator (npm package gltf-validator) on .glb / .gltf files and fails
// when any of them has an error. Warnings and infos are counted and printed, not fatal.
//   node scripts/gltf_validate.cjs --module DIR/node_modules/gltf-validator FILE...
// scripts/install-gltf-validator.sh installs the pinned package into DIR.
'use strict';
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const at = args.indexOf('--module');
if (at < 0 || at + 1 >= args.length) {
    console.error('usage: gltf_validate.cjs --module PATH/gltf-validator FILE...');
    process.exit(2);
}
const validator = require(path.resolve(args[at + 1]));
const files = args.filter((_, i) => i !== at && i !== at + 1);
if (files.length === 0) {
    console.error('gltf_validate: no files given');
    process.exit(2);
}

(async () => {
    let failed = 0;
    for (const file of files) {
        const dir = path.dirname(file);
        let report;
        try {
            report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
                uri: path.basename(file),
                maxIssues: 0,
                externalResourceFunction: (uri) =>
                    Promise.resolve(new Uint8Array(
                        fs.readFileSync(path.join(dir, decodeURIComponent(uri))))),
            });
        } catch (e) {
            console.log(`${file}: validator failed: ${e}`);
            ++failed;
            continue;
        }
        const i = report.issues;
        console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ` +
                    `${i.numInfos} infos, ${i.numHints} hints`);
        for (const m of i.messages)
            if (m.severity <= 1)
                console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ` +
                            `${m.pointer || ''}: ${m.message}`);
        if (i.numErrors > 0)
            ++failed;
    }
    process.exit(failed ? 1 : 0);
})();
