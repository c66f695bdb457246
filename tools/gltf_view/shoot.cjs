// Renders an exported .glb with index.html + view.js in headless Chromium and writes the
// canvas as a PNG. Serves the page, three.js and the .glb itself on 127.0.0.1 (a module page
// cannot load from file://).
//   node shoot.cjs MODULES GLB OUT.png SIZE CAMERA FOV SCALE COLOUR
//     MODULES  the node_modules folder holding three and playwright-core (npm ci of
//              package.json here, done by tools/gltf_compare.sh into the build tree)
//   env CHROMIUM: the browser (default /usr/bin/chromium)
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');

const [modules, glb, out, size, camera, fov, scale, colour] = process.argv.slice(2);
if (!colour) {
    console.error('usage: node shoot.cjs MODULES GLB OUT.png WxH X,Y,Z,PITCH,YAW FOV SCALE ' +
                  'game|spec');
    process.exit(2);
}
const { chromium } = require(path.join(path.resolve(modules), 'playwright-core'));
const [width, height] = size.split('x').map(Number);

const types = { '.html': 'text/html', '.js': 'text/javascript', '.glb': 'model/gltf-binary' };
const roots = { '/three/': path.join(path.resolve(modules), 'three') + '/', '/': __dirname + '/' };

function serve(req, res) {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = null;
    if (url === '/map.glb') file = path.resolve(glb);
    else
        for (const [prefix, dir] of Object.entries(roots))
            if (url.startsWith(prefix)) {
                const f = path.resolve(dir, url.slice(prefix.length));
                if (f.startsWith(dir)) file = f;
                break;
            }
    fs.readFile(file || '', (err, data) => {
        if (err) { res.writeHead(404); res.end(); return; }
        const type = types[path.extname(file)] || 'application/octet-stream';
        res.writeHead(200, { 'Content-Type': type });
        res.end(data);
    });
}

async function main() {
    const server = http.createServer(serve);
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const port = server.address().port;
    // SwiftShader WebGL: no GPU on the build machines, and the same rasteriser everywhere.
    const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
    });
    try {
        const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
        const log = [];
        page.on('console', (m) => log.push(m.text()));
        page.on('pageerror', (e) => log.push(String(e)));
        const q = new URLSearchParams({ glb: '/map.glb', size, camera, fov, scale, colour });
        await page.goto(`http://127.0.0.1:${port}/index.html?${q}`);
        await page.waitForFunction(() => window.gltfView !== undefined, null, { timeout: 300000 });
        const result = await page.evaluate(() => window.gltfView);
        if (!result.ok) throw new Error(result.error + '\n' + log.join('\n'));
        const png = await page.evaluate(() =>
            document.querySelector('canvas').toDataURL('image/png'));
        fs.writeFileSync(out, Buffer.from(png.slice(png.indexOf(',') + 1), 'base64'));
        console.log(JSON.stringify(result));
    } finally {
        await browser.close();
        server.close();
    }
}

main().catch((e) => { console.error('gltf_view: ' + (e && e.message || e)); process.exit(1); });
