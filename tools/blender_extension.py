"""Build the Blender 4.2+ extension zip: blender_addon/ + the wadkit wheel.

    python tools/blender_extension.py WHEEL_DIR OUT_DIR

The wheel from `make wheel` is retagged manylinux_2_<N>_x86_64 (N = the
newest glibc symbol version the extension uses; GLib is linked statically,
so libc/libm are its only shared dependencies) and the manifest's wheels
line is written with that name."""
import glob
import os
import re
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def glibc_minor(wheel: str) -> int:
    with zipfile.ZipFile(wheel) as z:
        so = [n for n in z.namelist() if n.endswith(".so")]
        data = b"".join(z.read(n) for n in so)
    found = [int(m) for m in re.findall(rb"GLIBC_2\.(\d+)", data)]
    return max(found) if found else 17


def main(wheel_dir: str, out_dir: str) -> None:
    wheels = sorted(glob.glob(os.path.join(wheel_dir, "wadkit-*-linux_x86_64.whl")),
                    key=os.path.getmtime)
    if not wheels:
        sys.exit(f"no wadkit wheel in {wheel_dir} (make wheel)")
    src = wheels[-1]
    tag = f"manylinux_2_{glibc_minor(src)}_x86_64"
    os.makedirs(out_dir, exist_ok=True)
    subprocess.run([sys.executable, "-m", "wheel", "tags", "--platform-tag", tag,
                    src], check=True, capture_output=True)
    retagged = re.sub(r"linux_x86_64\.whl$", tag + ".whl", src)
    name = os.path.basename(retagged)
    addon = os.path.join(ROOT, "blender_addon")
    with open(os.path.join(addon, "blender_manifest.toml")) as f:
        manifest = f.read()
    version = re.search(r'^version = "([^"]+)"', manifest, re.M).group(1)
    manifest = re.sub(r"wheels = \[[^\]]*\]", f'wheels = [\n  "./wheels/{name}",\n]',
                      manifest)
    out = os.path.join(out_dir, f"wadkit-{version}.zip")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for py in sorted(glob.glob(os.path.join(addon, "*.py"))):
            z.write(py, os.path.basename(py))
        z.writestr("blender_manifest.toml", manifest)
        z.write(retagged, f"wheels/{name}")
    os.remove(retagged)
    print(out)


if __name__ == "__main__":
    main(*sys.argv[1:])
