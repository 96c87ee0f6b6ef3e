"""python3 -m walkd_client.generate OUT_DIR: writes walkd's generated stubs into OUT_DIR."""

import sys

from walkd_client._stubs import generate


def main(argv):
    if len(argv) != 2:
        print("usage: python3 -m walkd_client.generate OUT_DIR", file=sys.stderr)
        return 2
    out = generate(argv[1])
    print(f"walkd_client: stubs in {out} (walk.v1.walk_pb2, walkd_health.v1.health_pb2, ..._grpc)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
