module boot

go 1.26.8
