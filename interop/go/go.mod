module leveldbj.org/interop

go 1.18

require github.com/syndtr/goleveldb v1.0.1-0.20220721030215-126854af5e6d

require github.com/golang/snappy v0.0.4 // indirect
