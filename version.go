package hammersim

// Version is the version of hammersim that every report carries.
const Version = "0.1.0"
