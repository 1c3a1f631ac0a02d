/**
 * The 3D viewer's scene (three.js): a GLB loaded with GLTFLoader, framed by its bounding box,
 * lit by a sky light and a key light (three lighting presets), turned and zoomed with
 * OrbitControls (pointer, wheel, arrow keys). It draws only when something changed (no render
 * loop while idle). GLTFLoader fetches the file (connect-src studio-media:) and reads an embedded
 * texture from a blob: URL (connect-src blob:); it needs no worker and no decoder download (a
 * Draco- or KTX2-compressed model is refused with words instead).
 */
import {
  Box3,
  Color,
  DirectionalLight,
  HemisphereLight,
  type Material,
  Mesh,
  PerspectiveCamera,
  Scene,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

export const LIGHTINGS = ['studio', 'soft', 'top'] as const;
export type Lighting = (typeof LIGHTINGS)[number];

const LIGHTING_SETUP: Record<Lighting, { sky: number; key: number; at: [number, number, number] }> = {
  studio: { sky: 1.2, key: 2.2, at: [3, 4, 5] },
  soft: { sky: 2.4, key: 0.8, at: [-2, 3, 4] },
  top: { sky: 0.6, key: 3, at: [0, 6, 0.5] },
};

export interface ModelScene {
  setLighting(lighting: Lighting): void;
  resetView(): void;
  resize(width: number, height: number): void;
  dispose(): void;
}

/** Loads the GLB at `url` into a scene drawn on `canvas`. Rejects in words when it cannot. */
export async function openModelScene(
  canvas: HTMLCanvasElement,
  url: string,
  background: string,
): Promise<ModelScene> {
  // preserveDrawingBuffer: the drawn picture stays readable (a screenshot, a test's pixels)
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  const scene = new Scene();
  scene.background = new Color(background);
  const sky = new HemisphereLight(0xffffff, 0x444455, 1);
  const key = new DirectionalLight(0xffffff, 1);
  scene.add(sky, key);
  const camera = new PerspectiveCamera(45, 1, 0.01, 1000);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false;
  controls.listenToKeyEvents(canvas);
  const draw = () => renderer.render(scene, camera);
  controls.addEventListener('change', draw);

  let gltf: Awaited<ReturnType<GLTFLoader['loadAsync']>>;
  try {
    gltf = await new GLTFLoader().loadAsync(url);
  } catch (err) {
    controls.dispose();
    renderer.dispose();
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`This 3D model could not be read (${reason.slice(0, 200)}).`);
  }
  scene.add(gltf.scene);

  // frame the model: the camera looks at its centre from a distance that fits its size
  const box = new Box3().setFromObject(gltf.scene);
  const size = box.getSize(new Vector3()).length() || 1;
  const centre = box.getCenter(new Vector3());
  // far enough that the bounding sphere fits the 45° view, with a margin
  const distance = (size / 2 / Math.sin((45 / 2) * (Math.PI / 180))) * 1.15;
  const home = centre.clone().add(new Vector3(0.6, 0.45, 1).normalize().multiplyScalar(distance));
  camera.near = size / 100;
  camera.far = size * 100;
  controls.minDistance = size * 0.2;
  controls.maxDistance = distance * 4;

  const scene3d: ModelScene = {
    setLighting(lighting) {
      const setup = LIGHTING_SETUP[lighting];
      sky.intensity = setup.sky;
      key.intensity = setup.key;
      key.position.set(...setup.at).multiplyScalar(size);
      draw();
    },
    resetView() {
      camera.position.copy(home);
      controls.target.copy(centre);
      camera.updateProjectionMatrix();
      controls.update();
      draw();
    },
    resize(width, height) {
      renderer.setSize(width, height, false);
      camera.aspect = width / Math.max(height, 1);
      camera.updateProjectionMatrix();
      draw();
    },
    dispose() {
      controls.removeEventListener('change', draw);
      controls.dispose();
      gltf.scene.traverse((object) => {
        if (!(object instanceof Mesh)) return;
        object.geometry.dispose();
        const materials: Material[] = Array.isArray(object.material) ? object.material : [object.material];
        for (const material of materials) material.dispose();
      });
      renderer.dispose();
    },
  };
  scene3d.setLighting('studio');
  scene3d.resetView();
  return scene3d;
}
