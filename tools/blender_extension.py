"""Build the Blender 4.2+ extension zip: blender_addon/ + the wadkit wheels.

    python tools/blender_extension.py WHEEL_DIR OUT_DIR [--inplace PKG_DIR]

Every wheel from `make wheel` (one per CPython: cp311 for Blender 4.2-5.0,
cp313 for 5.1+) is retagged manylinux_2_<N>_x86_64 (N = the newest glibc
symbol version its extension uses; GLib is linked statically, so libc/libm
are its only shared dependencies) and the manifest's wheels line lists them
all: Blender installs the one that fits its Python, and refuses the
extension where none does (so the manifest needs no blender_version_max).

--inplace PKG_DIR: also copy each wheel's compiled module into PKG_DIR
(the repository's wadkit/), so a Blender whose Python is not the one of
`make build` (5.3: CPython 3.13) imports the repository's wadkit in tests."""
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


def latest_per_python(wheel_dir: str) -> list[str]:
    """The newest wadkit wheel of each CPython tag in wheel_dir."""
    by_tag: dict[str, str] = {}
    for w in sorted(glob.glob(os.path.join(wheel_dir, "wadkit-*-linux_x86_64.whl")),
                    key=os.path.getmtime):
        by_tag[os.path.basename(w).split("-")[2]] = w
    return [by_tag[t] for t in sorted(by_tag)]


def retag(src: str) -> str:
    tag = f"manylinux_2_{glibc_minor(src)}_x86_64"
    subprocess.run([sys.executable, "-m", "wheel", "tags", "--platform-tag", tag,
                    src], check=True, capture_output=True)
    return re.sub(r"linux_x86_64\.whl$", tag + ".whl", src)


def copy_modules(wheels: list[str], pkg_dir: str) -> None:
    for w in wheels:
        with zipfile.ZipFile(w) as z:
            for name in z.namelist():
                if re.fullmatch(r"wadkit/_core\.cpython-\d+-[^/]+\.so", name):
                    target = os.path.join(pkg_dir, os.path.basename(name))
                    with open(target + ".tmp", "wb") as f:
                        f.write(z.read(name))
                    os.replace(target + ".tmp", target)


def main(wheel_dir: str, out_dir: str, inplace: str | None = None) -> None:
    wheels = latest_per_python(wheel_dir)
    if not wheels:
        sys.exit(f"no wadkit wheel in {wheel_dir} (make wheel)")
    if inplace:
        copy_modules(wheels, inplace)
    os.makedirs(out_dir, exist_ok=True)
    retagged = [retag(w) for w in wheels]
    names = [os.path.basename(r) for r in retagged]
    addon = os.path.join(ROOT, "blender_addon")
    with open(os.path.join(addon, "blender_manifest.toml")) as f:
        manifest = f.read()
    version = re.search(r'^version = "([^"]+)"', manifest, re.M).group(1)
    listed = "".join(f'  "./wheels/{n}",\n' for n in names)
    manifest = re.sub(r"wheels = \[[^\]]*\]", f"wheels = [\n{listed}]", manifest)
    out = os.path.join(out_dir, f"wadkit-{version}.zip")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for py in sorted(glob.glob(os.path.join(addon, "*.py"))):
            z.write(py, os.path.basename(py))
        z.writestr("blender_manifest.toml", manifest)
        for r, n in zip(retagged, names):
            z.write(r, f"wheels/{n}")
    for r in retagged:
        os.remove(r)
    print(f"{out}: {', '.join(names)}")


if __name__ == "__main__":
    args = sys.argv[1:]
    pkg = None
    if "--inplace" in args:
        i = args.index("--inplace")
        pkg = args[i + 1]
        del args[i:i + 2]
    main(*args, inplace=pkg)
