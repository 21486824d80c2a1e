from a320bench.bridge.cli import main

raise SystemExit(main())
