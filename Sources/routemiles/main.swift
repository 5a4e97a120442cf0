print("routemiles")
