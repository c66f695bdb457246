// Loads an exported map with three.js's own GLTFLoader and draws one frame from a bspview
// camera. Query parameters:
//   glb       URL of the .glb
//   size      WxH of the canvas (bspview --size)
//   camera    X,Y,Z,PITCH,YAW in map units and degrees (bspview --camera, Quake convention)
//   fov       horizontal field of view in degrees (bspview --fov)
//   scale     metres per map unit the file was exported with (--export-scale)
//   colour    game: texels, light and output as stored, multiplied as the game does (gamma
//             space); spec: three.js's glTF colour management (base colour decoded from
//             sRGB, lit in linear, encoded to sRGB)
// Sets window.gltfView = {ok, error, ...counts} when the frame is drawn.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const q = new URLSearchParams(location.search);
const [width, height] = q.get('size').split('x').map(Number);
const [x, y, z, pitch, yaw] = q.get('camera').split(',').map(Number);
const fovX = Number(q.get('fov') || 90);
const scale = Number(q.get('scale') || 0.0254);
const spec = q.get('colour') === 'spec';

// Quake (x, y, z), +Z up -> glTF scale * (x, z, -y), +Y up (docs/export.md "Axes and units").
const toGltf = (v) => new THREE.Vector3(v[0], v[2], -v[1]);

function wireLightmap(mesh, stats) {
    // docs/export.md "The lightmap convention": the lightmap page is the occlusion texture on
    // TEXCOORD_1, extras.lightmap_scale the multiplier. GLTFLoader puts extras in userData.
    const src = mesh.material;
    const lmScale = src.userData.lightmap_scale;
    const common = {
        map: src.map, transparent: src.transparent, opacity: src.opacity,
        alphaTest: src.alphaTest, side: src.side, depthWrite: src.depthWrite,
    };
    let m;
    if (lmScale !== undefined && src.aoMap) {
        // Lambert: base colour x (lightMap x intensity) / pi + emissive, and no other light in
        // the scene. three.js divides light map irradiance by pi (BRDF_Lambert), so the game's
        // factor is multiplied by pi here.
        m = new THREE.MeshLambertMaterial({
            ...common, lightMap: src.aoMap, lightMapIntensity: lmScale * Math.PI,
            emissive: src.emissive, emissiveMap: src.emissiveMap,
        });
        ++stats.lightmapped;
    } else {
        // Vertex-lit faces: the light is COLOR_0 (already scaled); unlit: base colour only.
        m = new THREE.MeshBasicMaterial({ ...common, vertexColors: src.vertexColors });
        ++stats.vertexLit;
    }
    m.name = src.name;
    m.userData = src.userData;
    if (!spec)
        for (const t of [m.map, m.lightMap, m.emissiveMap])
            if (t) t.colorSpace = THREE.NoColorSpace;
    mesh.material = m;
    src.dispose();
}

async function main() {
    if (!spec)
        THREE.ColorManagement.enabled = false;
    const renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
    renderer.setPixelRatio(1);
    renderer.setSize(width, height);
    renderer.outputColorSpace = spec ? THREE.SRGBColorSpace : THREE.LinearSRGBColorSpace;
    renderer.setClearColor(0x000000, 1);
    document.body.appendChild(renderer.domElement);

    const gltf = await new GLTFLoader().loadAsync(q.get('glb'));
    const stats = { meshes: 0, lightmapped: 0, vertexLit: 0, triangles: 0 };
    gltf.scene.traverse((o) => {
        if (!o.isMesh) return;
        ++stats.meshes;
        const g = o.geometry;
        stats.triangles += (g.index ? g.index.count : g.attributes.position.count) / 3;
        wireLightmap(o, stats);
    });

    // bspview's camera (src/scene/view/camera.*): horizontal fov, near plane 4 units.
    const { degToRad, radToDeg } = THREE.MathUtils;
    const fovY = 2 * radToDeg(Math.atan(Math.tan(degToRad(fovX) / 2) * height / width));
    const camera = new THREE.PerspectiveCamera(fovY, width / height, 4 * scale, 65536 * scale);
    const p = degToRad(pitch), w = degToRad(yaw);
    // Quake forward: (cos p cos y, cos p sin y, -sin p); pitch > 0 looks down, no roll.
    const forward = toGltf([Math.cos(p) * Math.cos(w), Math.cos(p) * Math.sin(w), -Math.sin(p)]);
    camera.position.copy(toGltf([x, y, z]).multiplyScalar(scale));
    camera.up.set(0, 1, 0);
    camera.lookAt(camera.position.clone().add(forward));

    const scene = new THREE.Scene();
    scene.add(gltf.scene);
    renderer.render(scene, camera);
    const gl = renderer.getContext();
    window.gltfView = {
        ok: true, ...stats, three: THREE.REVISION, gl: gl.getParameter(gl.VERSION),
    };
}

main().catch((e) => { window.gltfView = { ok: false, error: String(e && e.stack || e) }; });
